"""The moderation rows in Django's admin, to look up: the work is done on the moderators' own
pages (/moderation/), where every action is logged and takes effect at once. So the admin
lists and shows, and changes nothing (a change here would skip the log and the pushes)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from .models import LogEntry, RatingRefund, Report, Sanction, SignupAddress, Suspicion


class ReadOnly(admin.ModelAdmin):  # type: ignore[type-arg]
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Report)
class ReportAdmin(ReadOnly):
    list_display = ["reported", "reporter", "reason", "status", "created_at", "closed_by"]
    list_filter = ["status", "reason"]
    search_fields = ["reported__username", "reporter__username"]


@admin.register(Sanction)
class SanctionAdmin(ReadOnly):
    list_display = ["user", "kind", "topic", "created_by", "created_at", "lifted_at"]
    list_filter = ["kind", "topic"]
    search_fields = ["user__username"]


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnly):
    list_display = ["created_at", "moderator", "action", "player", "reason"]
    list_filter = ["action"]
    search_fields = ["player__username", "moderator__username"]


@admin.register(SignupAddress)
class SignupAddressAdmin(ReadOnly):
    list_display = ["user", "address", "created_at"]
    search_fields = ["user__username", "address"]


@admin.register(RatingRefund)
class RatingRefundAdmin(ReadOnly):
    list_display = ["user", "preset", "points", "closed_account", "created_at"]


@admin.register(Suspicion)
class SuspicionAdmin(ReadOnly):
    list_display = ["pattern", "user", "count", "found_at"]
    list_filter = ["pattern"]
