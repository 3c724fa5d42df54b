#pragma once
// Symbols of libzereduce that applications may use. Everything else in the library is hidden, so the
// runtime's internals never clash with an application's own copies of spdlog, OpenCL or Level Zero code.
#if defined(ZR_BUILDING_LIBRARY)
#define ZR_API __attribute__((visibility("default")))
#else
#define ZR_API
#endif
