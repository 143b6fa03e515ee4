#include "cdrivers.h"
