"""Lower a checked declaration to the semantic IR: what one tool's validator must check,
and nothing about how it is spelled.

Takes what `front` accepted (a `Declaration`, its schema graph and `Checked`); hands on a
`ToolModule` of `Node`s, one per schema its vocabulary interprets (`nodes`, `lower`). `names`
turns JSON names into module names and identifier words, with the collision suffix the
planner uses. Imports `front` and `base` only.
"""
