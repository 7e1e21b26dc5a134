"""The Trung Quân console and the live audience display of Tổ Tôm Điếm (RULES.md §14)."""
