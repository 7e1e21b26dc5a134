"""Reports people can open and print: CSV (UTF-8 with BOM) and XLSX of ledgers and ván lists,
PDF reports of a sitting and each player's statement, printable score sheets with a QR code
opening the sitting's page, the JSON backup of a sitting, and the data of the balance charts.

Everything is read from the ledger (postings) and the engine's replay; nothing here writes.
"""
