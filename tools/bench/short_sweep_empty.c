/* Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
 *
 * short_sweep's empty column: a function of ipsum_checksum's signature that
 * does nothing, linked into the sweep and built into a library of its own,
 * so that the sweep shows what the call itself costs each way. */

#include <stddef.h>
#include <stdint.h>

uint16_t short_sweep_empty(const void* buf, size_t len, uint16_t initial) {
  (void)buf;
  (void)len;
  return initial;
}
