import sys

from verified_docs.cli import main

sys.exit(main())
