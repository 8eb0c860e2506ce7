#pragma once
#include <ATen/core/Tensor.h>
#include <ATen/TensorOperators.h>
#include <QtTest/QtTest>
#include <vector>
