"""The game backend service: HTTP routes, seats and tokens, moves, live event streams.

No rules live here: every move goes through `domain` (`Game.execute`, `legal_commands`).
"""
