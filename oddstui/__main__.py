from oddstui.cli import main

raise SystemExit(main())
