#!/usr/bin/env bash
# Copyright 2026 The ipsum Authors. SPDX-License-Identifier: Apache-2.0
#
# The README's main-job command: installs what is missing (tools/setup.sh),
# builds the csum tool optimized and runs it on the data bundled in testdata/.
# Extra arguments go to csum instead of the default job.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
if [ "$#" -eq 0 ]; then
  set -- sum testdata/checksum/*.bin
fi
exec bazel run --config=opt --ui_event_filters=-info,-stdout,-stderr \
  --noshow_progress //tools/csum -- "$@"
