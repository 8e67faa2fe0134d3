"""The touchscreen app: a scene stack drawn with pygame, a launcher, and the screens each game plugs in.

Nothing here imports pygame at module level except the modules that draw; `companion.ui.cli` stays light so the
`companion` command starts fast.
"""
