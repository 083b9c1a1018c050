-- The links 0025 deleted cannot come back, and nothing else changed.
SELECT 1;
