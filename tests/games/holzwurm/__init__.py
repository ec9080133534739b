"""Der dreizehnte Holzwurm (holzwurm): its rules, words, compiled kernel and search, and its independent replayer."""
