"""The Bets screen (`7`): the bet log, settled from final scores, with P&L and CLV."""
