//===- AmperePatterns.cpp - cp.async, ldmatrix/stmatrix, mma.sync -> nvvm ===//
#include "ConversionUtils.h"

using namespace mlir;
using namespace mlir::cake;

void populateCakeAmperePatterns(CakeTypeConverter &converter, RewritePatternSet &patterns) {}
