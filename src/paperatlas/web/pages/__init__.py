"""One module per page group, each declaring its `routes` (web/routes.py); web/app.py adds them."""
