from quaymoor.cli import main

raise SystemExit(main())
