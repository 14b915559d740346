// stb_image's implementation compiled into fuzz_stb with the fuzzer's coverage instrumentation
// and sanitizers (Debian's libstb.so is built without them, so libFuzzer could not steer through
// it and ASan could not see inside it). Same header, same version as the one mad links.
#define STB_IMAGE_IMPLEMENTATION
#include <stb_image.h>
