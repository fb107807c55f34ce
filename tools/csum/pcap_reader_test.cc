// Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
