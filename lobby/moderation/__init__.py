"""Reports and moderation: a room of its own (app label ``moderation``).

A player reports another (``reports``: from the player's page, beside the opponent's name at
the table, or the API), within limits; moderators (``access``) review the reports queued with
the evidence (``evidence``) on their page (``mod_views``), and act (``actions``): warn, mute
quick messages, ban from rated play or from reporting, close the account (for rating abuse,
with refunds: ``refunds``), each logged and each able to be lifted. What a sanction means
elsewhere is answered here through hooks the rest of the site asks (``sanctions``,
``hooks``); the player hears of it at once on their open pages and event stream
(``notices``). ``patterns`` finds suspicious players without waiting for a report.
docs/moderation.md says the rules.
"""
