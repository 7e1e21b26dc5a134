"""The Trung Quân console and the live audience display of Tổ Tôm Điếm (docs/rules.md §14)."""
