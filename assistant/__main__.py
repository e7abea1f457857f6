"""``python -m assistant``: the command line. The front ends sit above this package, so it reaches them
only here, only when run as a program, and only inside ``main``: importing ``assistant`` never loads ``ui``."""


def main() -> None:
    from ui.cli import main as run_cli

    run_cli()


if __name__ == "__main__":
    main()
