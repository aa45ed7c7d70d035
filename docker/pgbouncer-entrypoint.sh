#!/bin/sh
# Writes PgBouncer's user list from the environment (the password never lands in the image),
# then runs PgBouncer in the foreground.
set -eu
umask 077
printf '"%s" "%s"\n' "$DB_USER" "$DB_PASSWORD" > /tmp/userlist.txt
exec pgbouncer /etc/pgbouncer/pgbouncer.ini
