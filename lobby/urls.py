from __future__ import annotations

from django.urls import URLPattern, URLResolver, path

from lobby import views
from lobby.people import views as player_views
from lobby.ratings import views as rating_views

app_name = "lobby"

# Mounted at the site root: the account pages live at /settings/, /players/ (search),
# /players/<username>/ and /friends/,
# the lobby at /lobby/.
urlpatterns: list[URLPattern | URLResolver] = [
    path("settings/", views.account_settings, name="settings"),
    path("settings/sound", views.sound, name="sound"),
    path("settings/api-tokens/", views.create_api_token, name="create_api_token"),
    path("settings/api-tokens/<int:pk>/revoke", views.revoke_api_token, name="revoke_api_token"),
    path(
        "settings/api-tokens/revoke-all", views.revoke_all_api_tokens, name="revoke_all_api_tokens"
    ),
    path("settings/devices/<int:pk>/remove", views.remove_device, name="remove_device"),
    path("settings/sign-out-elsewhere", views.sign_out_elsewhere, name="sign_out_elsewhere"),
    path("players/", player_views.search, name="search"),
    path("friends/", player_views.friends_page, name="friends"),
    path("players/<str:username>/", player_views.player, name="player"),
    path("players/<str:username>/follow", player_views.follow, name="follow"),
    path("players/<str:username>/unfollow", player_views.unfollow, name="unfollow"),
    path("players/<str:username>/block", views.block_player, name="block"),
    path("players/<str:username>/unblock", views.unblock_player, name="unblock"),
    path("lobby/", views.lobby, name="lobby"),
    path("leaderboards/<str:preset>/", rating_views.leaderboard, name="leaderboard"),
    path("lobby/challenges/", views.send_challenge, name="challenge"),
    path("lobby/challenges/<int:pk>/accept", views.accept_challenge, name="accept_challenge"),
    path("lobby/challenges/<int:pk>/decline", views.decline_challenge, name="decline_challenge"),
    path("lobby/challenges/<int:pk>/cancel", views.cancel_challenge, name="cancel_challenge"),
    path("lobby/challenges/<int:pk>/accept-counter", views.accept_counter, name="accept_counter"),
    path("lobby/pool/", views.join_pool, name="join_pool"),
    path("lobby/pool/leave", views.leave_pool, name="leave_pool"),
    path("lobby/seeks/", views.post_seek, name="post_seek"),
    path("lobby/seeks/<int:pk>/accept", views.accept_seek, name="accept_seek"),
    path("lobby/seeks/<int:pk>/cancel", views.cancel_seek, name="cancel_seek"),
]
