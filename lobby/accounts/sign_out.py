"""Signing out everywhere else, from Settings.

Django keeps no list of a player's sessions: each one carries a hash of the account's password
hash and is refused once that no longer matches. So the password is salted anew (the player
types it, which proves it is them, and the attempt is counted against guessing like a sign-in:
django-axes), every other session stops matching, and this browser's session is brought up to
date. Their open sockets and streams close too (``lobby.subscribers``).

The apps the player signed in to (OAuth, ``lobby.oauth``) are signed out too: each got its
tokens through a sign-in on some device, and a player who signs out everywhere because a phone
was lost means its app as well. Their tokens end and their streams close (4401), as revoking
each in Settings does. Personal API tokens are not sign-ins but programs the player set up
(bots, scripts): they keep working; Settings says so and offers to revoke them all.
"""

from __future__ import annotations

from django.contrib.auth import authenticate, update_session_auth_hash
from django.http import HttpRequest

from lobby.oauth import access as app_access


def everywhere_else(request: HttpRequest, password: str) -> bool:
    """End every session of the signed-in player but this one, and every app's tokens; False
    (nothing changed) when ``password`` is not theirs."""
    me = request.user
    user = authenticate(request, username=me.get_username(), password=password)
    if user is None or user.pk != me.pk:
        return False
    user.set_password(password)  # the same password, a new salt: a new hash
    user.save(update_fields=["password"])
    update_session_auth_hash(request, user)
    app_access.revoke_all(user)
    return True
