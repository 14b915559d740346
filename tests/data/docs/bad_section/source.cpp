// See docs/guide.md, "Section two" for why.
