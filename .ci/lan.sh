# Sourced by run-app.sh (PY and HOST set): served on the LAN (HOST=0.0.0.0), the app answers this
# machine's own addresses and names, unless DJANGO_ALLOWED_HOSTS says otherwise (totom_site/lan.py;
# README, "Cấu hình"). A Host naming any other site is still refused (400).
if [ -z "${DJANGO_ALLOWED_HOSTS:-}" ]; then
  DJANGO_ALLOWED_HOSTS=$($PY -m totom_site.lan hosts "$HOST"); export DJANGO_ALLOWED_HOSTS
fi
