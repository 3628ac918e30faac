"""The ``tda-audit`` command line: a small click CLI over one DuckDB file."""

from __future__ import annotations

import json
import sys

import click

from auditor import __version__
from auditor.store import DB_ENV, DEFAULT_DB, StoreError

DB_OPTION = click.option(
    "--db",
    envvar=DB_ENV,
    default=DEFAULT_DB,
    show_default=True,
    type=click.Path(dir_okay=False),
    help=f"DuckDB store file (also ${DB_ENV}).",
)


def fail(msg: str) -> None:
    click.echo(f"Error: {msg}", err=True)
    sys.exit(2)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="tda-audit")
def main() -> None:
    """Audit poker hand histories against the Poker TDA rules.

    \b
    Typical use:
      tda-audit ingest histories/          # read hand histories into audit.duckdb
    """


@main.command()
@click.argument("paths", nargs=-1, required=True)
@DB_OPTION
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
def ingest(paths: tuple[str, ...], db: str, as_json: bool, quiet: bool) -> None:
    """Read hand histories (files, folders, globs) into the event log.

    \b
    Examples:
      tda-audit ingest sample_histories/
      tda-audit ingest 'downloads/**/*.txt' --db event.duckdb --json
    """
    from auditor.ingest import InputError, expand_paths
    from auditor.ingest import ingest as run_ingest

    try:
        files = expand_paths(paths)
    except InputError as e:
        fail(str(e))
    if not files:
        fail(f"no files found in {' '.join(paths)}")
    show = not quiet and not as_json and sys.stderr.isatty()
    with click.progressbar(length=len(files), label="ingesting", file=sys.stderr) if show else _null() as bar:
        try:
            summary = run_ingest(files, db=db, progress=lambda r: bar.update(1) if show else None)
        except StoreError as e:
            fail(str(e))
    if as_json:
        click.echo(json.dumps(summary.as_json(), indent=2))
    else:
        print_ingest_summary(summary)
    if summary.files and all(r.error for r in summary.file_results):
        sys.exit(2)


def print_ingest_summary(summary) -> None:
    click.echo(
        f"files {summary.files}  hands seen {summary.hands_seen}: stored {summary.stored}, "
        f"duplicates {summary.duplicates}, rejected {summary.rejected}  ({summary.seconds:.2f}s)"
    )
    for r in summary.file_results:
        if r.error:
            click.echo(f"  not read: {r.path}: {r.error}", err=True)
    for e in summary.errors[:20]:
        if e["line"]:
            click.echo(f"  rejected: {e['file']}:{e['line']}: {e['reason_code']}: {e['reason']}", err=True)
    if len(summary.errors) > 20:
        click.echo(f"  ... and {len(summary.errors) - 20} more (see the ingest_errors table)", err=True)


class _null:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False

    def update(self, n):
        pass


if __name__ == "__main__":
    main()
