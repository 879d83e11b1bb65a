"""Bridge card play (issue 35): one contract played out from a deal, full states and one
seat's views (`kibitz.games.bridge.game`), the cards' notation (`cards`), the deals of a
view's unseen cards (`unseen`) and the drawings (`layout`)."""

from kibitz.games.bridge.game import Bridge

__all__ = ["Bridge"]
