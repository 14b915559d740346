// Fixture for the layering test: a kernel that uses only common/ (allowed).
#include "common/image.h"
