"""Settings for the whole suite."""
import os

from hypothesis import settings

# In CI every property test replays the same examples (a red run can be rerun and seen
# again); on a developer's machine hypothesis explores new ones each time.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
