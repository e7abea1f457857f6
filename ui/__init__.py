"""Front ends of the assistant: the CLI, the terminal chat and the web app. Each is a thin client of ``Assistant``."""
