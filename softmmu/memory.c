/* Memory API: see include/nxemu/memory.h (being written). */
#include "nxemu/memory.h"
