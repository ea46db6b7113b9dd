"""A fake clock for the reproducibility test, loaded through PYTHONPATH: every clock reading
of this process (``time.time``, ``time.localtime``/``gmtime``/``ctime``/``asctime``/``strftime``
without a time given, ``datetime.now``, ``date.today``) is shifted so that the
process starts at ``FAKE_CLOCK_START`` (seconds since the epoch). Monotonic clocks are left
alone, so timeouts still work."""
import datetime
import os
import time

_shift = float(os.environ["FAKE_CLOCK_START"]) - time.time()
_real_time, _real_time_ns = time.time, time.time_ns
time.time = lambda: _real_time() + _shift
time.time_ns = lambda: _real_time_ns() + int(_shift * 1e9)
_real = {name: getattr(time, name) for name in ("localtime", "gmtime", "ctime", "asctime", "strftime")}
time.localtime = lambda secs=None: _real["localtime"](time.time() if secs is None else secs)
time.gmtime = lambda secs=None: _real["gmtime"](time.time() if secs is None else secs)
time.ctime = lambda secs=None: _real["ctime"](time.time() if secs is None else secs)
time.asctime = lambda t=None: _real["asctime"](time.localtime() if t is None else t)
time.strftime = lambda fmt, t=None: _real["strftime"](fmt, time.localtime() if t is None else t)


class _FakeDatetime(datetime.datetime):
    @classmethod
    def now(cls, tz=None):
        return datetime.datetime.fromtimestamp(time.time(), tz).replace(tzinfo=tz)  # noqa: DTZ006

    @classmethod
    def utcnow(cls):
        return datetime.datetime.fromtimestamp(time.time(), datetime.timezone.utc).replace(tzinfo=None)

    @classmethod
    def today(cls):
        return cls.now()


class _FakeDate(datetime.date):
    @classmethod
    def today(cls):
        return datetime.date.fromtimestamp(time.time())


datetime.datetime, datetime.date = _FakeDatetime, _FakeDate
