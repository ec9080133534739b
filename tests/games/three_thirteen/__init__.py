"""Three Thirteen (three-thirteen): its rules, meld solver, words, compiled kernel, search and value network, and
its independent replayer."""
