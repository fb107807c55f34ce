#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The README's main-job command: installs what is missing (tools/setup.sh),
# builds the csum tool optimized and runs it with no arguments, which
# verifies the captures bundled in testdata/captures, prints a summary per
# capture and checks every verdict against the ground truth next to it.
# Extra arguments go to csum instead of the default job.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
exec bazel run --config=opt --ui_event_filters=-info,-stdout,-stderr \
  --noshow_progress //tools/csum -- "$@"
