/* kt.h — the one place the search module reaches Kernel Tuner's cache
 * format (its parser lives with the store's importer); when that parser
 * moves, only this include changes. */
#ifndef GS_SEARCH_KT_H
#define GS_SEARCH_KT_H

#include "interop/ktcache.h"

#endif
