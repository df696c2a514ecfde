"""Name pools for the simulated catalog: teams, players, countries and bookmakers.

Some names are deliberately awkward (non-ASCII, `[`, `]`, `&`) so that every client has to treat
network text as plain text.
"""

from __future__ import annotations

# (slug part, display name) of countries and regions used in league names.
COUNTRIES = [
    ("england", "England"), ("spain", "Spain"), ("germany", "Germany"), ("italy", "Italy"),
    ("france", "France"), ("norway", "Norway"), ("czechia", "Czechia"), ("portugal", "Portugal"),
    ("netherlands", "Netherlands"), ("sweden", "Sweden"), ("denmark", "Denmark"),
    ("poland", "Poland"), ("usa", "USA"), ("brazil", "Brazil"), ("argentina", "Argentina"),
    ("japan", "Japan"), ("australia", "Australia"), ("finland", "Finland"),
    ("switzerland", "Switzerland"), ("austria", "Austria"), ("turkey", "Türkiye"),
    ("iceland", "Ísland"), ("croatia", "Croatia"), ("ireland", "Ireland"),
    ("international", "International"), ("europe", "Europe"), ("world", "World"),
]

# Cities and town names for team names; a mix of plain and non-ASCII.
TOWNS = [
    "Ashford", "Bramley", "Castleford", "Dunmore", "Eastwick", "Fairhaven", "Glenrock",
    "Harrowgate", "Ironbridge", "Kingsport", "Lakeshore", "Millbrook", "Northam", "Oakridge",
    "Porthaven", "Queensbury", "Riverton", "Stonebridge", "Thornbury", "Upton", "Valemont",
    "Westfield", "Yarmouth", "Zeeburg", "Atlético Sur", "Bodø", "Škoda Plzeň", "Malmö",
    "Göteborg", "Zürich", "Kraków", "Łódź", "São Bento", "Córdoba", "Málaga", "Köln",
    "München Ost", "Tromsø", "Århus", "Jönköping", "Győr", "Brașov", "Niš", "Reykjavík",
    "Düsseldorf Nord", "Sevilla Este", "Genève", "Liège", "Besançon", "Álftanes",
    "Vålerenga", "Plzeň", "Třinec", "Kärpät", "Jyväskylä", "Örebro", "Dniprø", "Čáslav",
]

TEAM_SUFFIXES = [
    "FC", "United", "City", "Rovers", "Athletic", "Wanderers", "SC", "Town", "Albion", "Sporting",
    "Rangers", "Olympic", "Dynamo", "Real", "Union", "Stars", "Kings", "Wolves", "Hawks", "Bears",
]

# Fixed names that must exist somewhere in the catalog (the spec asks for them by name).
SPECIAL_TEAMS = [
    "Atlético", "Bodø/Glimt", "Škoda Mladá Boleslav", "[Reserve] Rovers & Co",
    "Brighton & Hove [U21]", "Köln & Söhne",
]

FIRST_NAMES = [
    "Lukas", "Mateo", "Noah", "Oliver", "Liam", "Elias", "Hugo", "Luca", "Jonas", "Emil",
    "Matías", "Jérôme", "Søren", "Björn", "Łukasz", "Dávid", "Tomáš", "Andrés", "Joaquín",
    "Kenji", "Haruto", "Aarav", "Mikel", "Niklas", "Ivan", "Marek", "Pau", "Rafael", "Diego",
    "Amélie", "Chloé", "Zoë", "Iga", "Aryna", "Coco", "Jasmine", "Elena", "Marta", "Sofía",
    "Naomi", "Ons", "Karolína", "Barbora", "Leylah", "Emma", "Maja", "Ingrid", "Astrid",
]

LAST_NAMES = [
    "Müller", "García", "Novák", "Andersen", "Johansson", "Kowalski", "Silva", "Rossi", "Dubois",
    "Jørgensen", "Ødegaard", "Šťastný", "Fernández", "Núñez", "Petrović", "Horváth", "Yılmaz",
    "Tanaka", "Sato", "Kim", "Smith", "Brown", "Walker", "O'Neill", "McCarthy", "Van Dijk",
    "De Jong", "Lindqvist", "Virtanen", "Nieminen", "Kovač", "Dvořák", "Łaski", "Gómez",
    "Martínez", "López", "Haugen", "Berg", "Nilsson", "Schmidt", "Weiß", "Ruiz", "Costa",
    "Pereira", "Moreau", "Laurent", "Bianchi", "Romano", "Esposito", "Kaczmarek",
]

# Esports organisations.
ESPORTS_TEAMS = [
    "Nebula Five", "Team Ragnarök", "Cloud Nine Ø", "Vortex Gaming", "Astralis Nord",
    "[NV] Nightvale", "Fnatic & Friends", "Heroic Ålesund", "Sprout München", "Ence Jyväskylä",
    "Eternal Fire", "MOUZ Academy", "Virtus Prō", "Liquid Sky", "Complexity Red", "G2 Lumière",
    "BIG Köln", "Spirit Kazań", "FURIA Sul", "Imperial São Paulo", "Apeks Øst", "Monte Kyïv",
]

# Well-known bookmakers first: the default selection and the sharp books come from here.
WELL_KNOWN_BOOKMAKERS = [
    "Bet365", "Pinnacle", "SingBet", "Betfair Exchange", "Unibet", "William Hill", "1xBet",
    "Bwin", "Betway", "DraftKings", "FanDuel", "BetMGM", "Betsson", "Marathonbet", "888sport",
    "Ladbrokes", "Coral", "Paddy Power", "Sky Bet", "Betfred", "Betano", "Betvictor",
    "BetRivers", "Caesars", "PointsBet", "Stake", "Tipico", "Interwetten", "Sportingbet",
    "Betclic", "Winamax", "Parions Sport", "Svenska Spel", "Norsk Tipping", "Veikkaus",
    "Fortuna", "Tipsport", "Chance", "STS", "Superbet", "Mr Green", "LeoVegas", "Coolbet",
    "Nordicbet", "Betsafe", "Snai", "Sisal", "Goldbet", "Eurobet", "Lottomatica", "Codere",
    "Sportium", "Kambi", "BoyleSports", "Betdaq", "Matchbook", "Smarkets", "SBOBet",
    "Dafabet", "188Bet", "Fun88", "Cloudbet", "BC.Game", "Rollbit", "Sportsbet.io", "TAB",
    "Sportsbet AU", "Ladbrokes AU", "Neds", "Bovada", "BetOnline", "MyBookie", "Heritage",
    "Circa Sports", "Hard Rock Bet", "ESPN Bet", "Fanatics", "Betsson Ørsted", "Bet-at-home",
    "Admiral", "Mozzart", "Meridianbet", "Betcris", "Caliente", "Rivalo", "Betsul", "KTO",
    "Betnacional", "Esportes da Sorte", "Parimatch", "Favbet", "GGBet", "Vbet", "Melbet",
    "22Bet", "Betwinner", "Megapari", "Mostbet", "Linebet",
]

BOOK_PARTS_A = [
    "Ace", "Apex", "Blue", "Bold", "Crown", "Delta", "Eagle", "Elite", "Fox", "Gold", "Grand",
    "Green", "High", "Iron", "Jet", "King", "Lion", "Lucky", "Max", "Nova", "Omega", "Prime",
    "Red", "Royal", "Silver", "Star", "Swift", "Titan", "Top", "Vega", "Wild", "Zen", "Nord",
    "Süd", "Øst", "Vest", "Ström", "Fjord", "Alpen", "Costa",
]
BOOK_PARTS_B = [
    "bet", "bets", "odds", "wager", "sport", "play", "stake", "line", "win", "punt", "book",
    "spel", "tip", "pick", "ball", "goal",
]
BOOK_SUFFIXES = ["", "", "", " Sports", " Exchange", ".io", " Live", " 24", " Plus", " Club"]


def town_team(town: str, suffix: str, suffix_first: bool) -> str:
    return f"{suffix} {town}" if suffix_first else f"{town} {suffix}"


def person(first: str, last: str) -> str:
    return f"{first} {last}"
