"""13 (knizia13): its rules, words, compiled kernel and search, and its independent replayer."""
