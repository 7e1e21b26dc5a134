"""The backup file (``so-tom-backup``, JSON): one package, each app registering its own part.

* :mod:`scoring.backup.format`: the name and version, dates, history rows, inserting with the file's ids;
* :mod:`scoring.backup.parts`: :class:`Part` and :func:`register_part` (an app's keys, kinds, restore);
* :mod:`scoring.backup.write`: the ledger's part written (rule sets, people, sittings), a sitting's file;
* :mod:`scoring.backup.restore`: :func:`backup_restore`, the ledger's part first, then every registered part.

The tournaments app registers the event (``tournaments.backup``) and the Trung Quân console
(``tournaments.console.backup``) parts from their ``AppConfig.ready``.
"""

from scoring.backup.format import (
    FORMAT,
    VERSION,
    BackupError,
    history_json,
    insert,
    iso,
    restore_history,
    when,
)
from scoring.backup.parts import Part, register_part
from scoring.backup.restore import Restored, Restorer, backup_restore
from scoring.backup.write import (
    backup_envelope,
    people_json,
    rule_sets_json,
    sitting_backup,
    sitting_document,
)

__all__ = [
    "FORMAT",
    "VERSION",
    "BackupError",
    "Part",
    "Restored",
    "Restorer",
    "backup_envelope",
    "backup_restore",
    "history_json",
    "insert",
    "iso",
    "people_json",
    "register_part",
    "restore_history",
    "rule_sets_json",
    "sitting_backup",
    "sitting_document",
    "when",
]
