#pragma once
// Everything a user of the gpuglu core needs.
#include "gpuglu/analysis.hpp"
#include "gpuglu/generators.hpp"
#include "gpuglu/lu.hpp"
#include "gpuglu/matrix.hpp"
#include "gpuglu/matrix_market.hpp"
#include "gpuglu/matrix_ops.hpp"
#include "gpuglu/options.hpp"
#include "gpuglu/schedule.hpp"
#include "gpuglu/status.hpp"
#include "gpuglu/device.hpp"
