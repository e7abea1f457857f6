from ui.cli import main

main()
