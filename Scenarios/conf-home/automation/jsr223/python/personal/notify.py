from core.rules import rule
from core.triggers import when

@rule("Notify on window")
@when("Item Hall_Window changed to OPEN")
def notify(event):
    notify.log.info("window open")
