// See docs/moved.md for why.
