// The rule is explained in docs/guide.md, "Section one" (and docs/guide.md ("Section one: the")).
