#ifndef WEBPBRIDGE_CSPNG_SHIM_H
#define WEBPBRIDGE_CSPNG_SHIM_H
#include <spng.h>
#endif
