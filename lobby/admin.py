from __future__ import annotations

from django.contrib import admin

from lobby.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["display_name", "user", "language", "created_at"]
    search_fields = ["display_name", "user__username"]
    raw_id_fields = ["user"]
