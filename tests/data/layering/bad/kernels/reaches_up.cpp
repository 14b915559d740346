// Fixture for the layering test: a kernel that reaches up into mad/ (not allowed).
#include "mad/score.h"
