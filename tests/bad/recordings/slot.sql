-- expect: pmutop: -r slot.pmrec: damaged recording (counter slot 5 undescribed)
UPDATE counters SET slot = slot + 100000 WHERE slot = 5;
