"""Model instances from SQL written once: the hot path's few lookups without the ORM's building.

Django builds, clones and compiles a queryset on every call. For the lookups every API move
makes (its token with the account, its seat with the match, the match locked) that was about
1 ms each on the CI machine, ten times what the database takes to answer them
(``bench/move_profile.py``; docs/performance.md); its few writes (the action, the match row,
the idempotency record) cost alike. Those statements are written out here once,
with their columns taken from the models' own fields, and each value passes through the same
converters the ORM applies (dates on SQLite, JSON), so the instances are the ones a queryset
would have made: ``from_db``, related objects cached as ``select_related`` caches them.

Everything else reads through the ORM: use this only where a profile shows the building.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection
from django.db.models import Model

# A statement and its parameters.
Statement = tuple[str, Sequence[Any]]


class Columns:
    """A model's columns in a statement, under a table alias, and the instance made from them."""

    def __init__(self, model: type[Model], alias: str) -> None:
        self.model = model
        self.alias = alias
        self.fields = list(model._meta.concrete_fields)
        self.attnames = [field.attname for field in self.fields]
        self._pk_index = self.attnames.index(model._meta.pk.attname)  # type: ignore[union-attr]
        self._converters: dict[str, list[tuple[int, Any, Any]]] = {}

    @property
    def table(self) -> str:
        """``"table" alias``, for a FROM or JOIN."""
        return f"{connection.ops.quote_name(self.model._meta.db_table)} {self.alias}"

    @property
    def sql(self) -> str:
        """The select list: ``alias."column", ...``."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    def column(self, name: str) -> str:
        """``alias."column"`` of the field ``name``."""
        return f"{self.alias}.{self.bare(name)}"

    @property
    def name(self) -> str:
        """``"table"`` alone: the target of an INSERT or UPDATE, whose columns are bare."""
        return connection.ops.quote_name(self.model._meta.db_table)

    def bare(self, name: str) -> str:
        """``"column"`` of the field ``name``, without the alias (an INSERT's or SET's)."""
        field = self.model._meta.get_field(name)
        return connection.ops.quote_name(field.column)  # type: ignore[union-attr]

    def take(self, row: Sequence[Any], start: int = 0) -> tuple[Model | None, int]:
        """The instance in ``row`` from ``start`` (None where an outer join found no row), and
        where the next model's columns begin."""
        end = start + len(self.fields)
        values = list(row[start:end])
        if values[self._pk_index] is None:
            return None, end
        for i, convert, expression in self._converters_for():
            values[i] = convert(values[i], expression, connection)
        return self.model.from_db(connection.alias, self.attnames, values), end

    def _converters_for(self) -> list[tuple[int, Any, Any]]:
        """(column index, converter, expression) in the order the compiler applies them."""
        vendor = connection.vendor
        if vendor not in self._converters:
            found = []
            for i, field in enumerate(self.fields):
                expression = field.get_col(self.alias)
                for convert in connection.ops.get_db_converters(
                    expression
                ) + expression.get_db_converters(connection):
                    found.append((i, convert, expression))
            self._converters[vendor] = found
        return self._converters[vendor]


def fetch_one(sql: str, params: Sequence[Any]) -> tuple[Any, ...] | None:
    """The first row of ``sql``, or None."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()  # type: ignore[no-any-return]


def fetch_all(sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
    """Every row of ``sql``."""
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall()  # type: ignore[no-any-return]


def fetch_sets(statements: Sequence[Statement]) -> list[list[tuple[Any, ...]]]:
    """The rows of each statement, in order. On PostgreSQL they go in one round trip (the
    client binds the values, so several statements travel as one query and their results
    come back one after the other, ``nextset``); elsewhere one by one. Either way they run in
    order in the caller's transaction: a lock the first takes holds for the next, and an
    error in one stops the rest."""
    if not statements:
        return []
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            found = []
            for sql, params in statements:
                cursor.execute(sql, params)
                found.append(_rows_of(cursor))
            return found
        cursor.execute(
            "; ".join(sql for sql, _ in statements), [v for _, p in statements for v in p]
        )
        found = [_rows_of(cursor)]
        while cursor.nextset():
            found.append(_rows_of(cursor))
        return found


def _rows_of(cursor: Any) -> list[tuple[Any, ...]]:
    """The rows of the statement just run; none for one that returns none (an UPDATE)."""
    return [] if cursor.description is None else cursor.fetchall()  # type: ignore[no-any-return]


def related(instance: Model, name: str, value: Model | None) -> None:
    """Keep ``value`` as ``instance.<name>`` (a foreign key, a one-to-one either way), as
    ``select_related`` keeps it: a one-to-one also points back from ``value``; None where the
    join found no row (then a reverse one-to-one raises ``DoesNotExist``, as it would)."""
    field = instance._meta.get_field(name)
    field.set_cached_value(instance, value)  # type: ignore[union-attr]
    if value is not None and field.one_to_one:
        field.remote_field.set_cached_value(value, instance)  # type: ignore[union-attr]


def chained(
    found: Sequence[Sequence[Any]], first: Columns, *links: tuple[str, Columns]
) -> list[Model]:
    """Each row's first object (``first``'s columns) with the objects joined after it, each
    kept as ``related`` on the one before it by its name in ``links`` (``("user", users),
    ("profile", profiles)``: ``seat.user.profile``), as ``select_related`` keeps them; a join
    that found no row ends its chain there."""
    objects = []
    for row in found:
        obj, end = first.take(row)
        assert obj is not None
        owner: Model | None = obj
        for name, columns in links:
            value, end = columns.take(row, end)
            if owner is not None:
                related(owner, name, value)
            owner = value
        objects.append(obj)
    return objects


def prefetched(instance: Model, name: str, objects: Sequence[Model]) -> None:
    """Keep ``objects`` as ``instance``'s related ``name`` (a reverse foreign key), as
    ``prefetch_related_objects`` keeps them: ``instance.<name>.all()`` reads no database, and
    each object's foreign key points back at ``instance``."""
    manager = getattr(instance, name)
    for obj in objects:
        manager.field.set_cached_value(obj, instance)
    queryset = manager.get_queryset()
    queryset._result_cache = list(objects)
    queryset._prefetch_done = True
    instance.__dict__.setdefault("_prefetched_objects_cache", {})[name] = queryset


def forget_prefetched(instance: Model, name: str) -> None:
    """Undo ``prefetched``: ``instance.<name>.all()`` reads the database again."""
    instance.__dict__.get("_prefetched_objects_cache", {}).pop(name, None)


def insert(*instances: Model) -> None:
    """``instance.save()`` of new rows of one model, in one statement: their fields'
    ``pre_save`` (``auto_now_add``) and database values as the ORM makes them; the primary
    keys come back into the instances (RETURNING gives the rows in the order of the VALUES,
    as Django's ``bulk_create`` relies on too)."""
    inserted(instances, fetch_all(*insert_statement(*instances)))


def insert_new(instance: Model) -> bool:
    """``insert`` of one row, unless a row with the same unique values exists: then False and
    nothing written (``ON CONFLICT DO NOTHING``: no error to break the transaction). On
    PostgreSQL a row with those values that another transaction is writing makes this wait
    for that transaction to end, and count as there once it commits."""
    sql, values = insert_statement(instance)
    found = fetch_all(sql.replace(" RETURNING ", " ON CONFLICT DO NOTHING RETURNING ", 1), values)
    if not found:
        return False
    inserted((instance,), found)
    return True


def insert_statement(*instances: Model) -> Statement:
    """``insert``'s statement, to run with others (``fetch_sets``); then ``inserted``."""
    meta = instances[0]._meta
    fields = [f for f in meta.concrete_fields if f is not meta.auto_field]
    key = (connection.vendor, meta.label, "insert", str(len(instances)))
    if key not in _statements:
        quote = connection.ops.quote_name
        pk = quote(meta.pk.column)  # type: ignore[union-attr]
        one = f"({', '.join(['%s'] * len(fields))})"
        _statements[key] = (
            f"INSERT INTO {quote(meta.db_table)} ({', '.join(quote(f.column) for f in fields)})"
            f" VALUES {', '.join([one] * len(instances))} RETURNING {pk}"
        )
    values = [
        f.get_db_prep_save(f.pre_save(instance, True), connection)
        for instance in instances
        for f in fields
    ]
    return _statements[key], values


def inserted(instances: Sequence[Model], found: Sequence[tuple[Any, ...]]) -> None:
    """The primary keys ``insert_statement`` returned, into its instances."""
    assert len(found) == len(instances)
    for instance, (pk,) in zip(instances, found, strict=True):
        instance.pk = pk
        instance._state.adding = False
        instance._state.db = connection.alias


def update(instance: Model, names: Sequence[str]) -> None:
    """``instance.save(update_fields=names)`` of a row that exists: the fields' ``pre_save``
    (``auto_now``) and database values as the ORM makes them."""
    with connection.cursor() as cursor:
        cursor.execute(*update_statement(instance, names))


def update_statement(instance: Model, names: Sequence[str]) -> Statement:
    """``update``'s statement, to run with others (``fetch_sets``)."""
    meta = instance._meta
    fields = [meta.get_field(name) for name in names]
    key = (connection.vendor, meta.label, "update", *names)
    if key not in _statements:
        quote = connection.ops.quote_name
        assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)  # type: ignore[union-attr]
        pk = quote(meta.pk.column)  # type: ignore[union-attr]
        _statements[key] = f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {pk} = %s"
    values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]  # type: ignore[union-attr]
    return _statements[key], [*values, instance.pk]


_statements: dict[tuple[str, ...], str] = {}


def for_update() -> str:
    """`` FOR UPDATE`` where the database locks rows (PostgreSQL); SQLite's IMMEDIATE
    transactions already hold the whole database."""
    return " FOR UPDATE" if connection.features.has_select_for_update else ""
