"""The web server: tables, lobby, seats, WebSocket play, clocks and persistence.

Importing this package costs nothing; :func:`cardtable.server.app.create_app` needs the
``web`` extra (FastAPI, uvicorn, SQLAlchemy).
"""
