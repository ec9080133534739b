"""The coefficients of :mod:`.inference`, written by
``python -m dreizehn.games.three_thirteen.inference --games 100 --seed 0 --players 2,4`` (do not edit).

Fitted on 1,351,662 samples (an unseen card with some evidence, a seat that may hold it).
On held-out games their log loss is 0.3177 nats against 0.3584 for the uniform deal.
"""

COEFFICIENTS = (
    -0.4237,  # pass/rank/age0
    -0.4390,  # pass/rank/age1
    -0.4536,  # pass/rank/age2
    -0.3346,  # pass/rank/age3
    -0.1508,  # pass/suit1/age0
    -0.1541,  # pass/suit1/age1
    -0.1548,  # pass/suit1/age2
    -0.0630,  # pass/suit1/age3
    -0.0655,  # pass/suit2/age0
    -0.0609,  # pass/suit2/age1
    -0.0314,  # pass/suit2/age2
    +0.0495,  # pass/suit2/age3
    -0.9188,  # discard/rank/age0
    -1.1765,  # discard/rank/age1
    -1.2405,  # discard/rank/age2
    -1.1603,  # discard/rank/age3
    -0.6445,  # discard/suit1/age0
    -0.7589,  # discard/suit1/age1
    -0.7765,  # discard/suit1/age2
    -0.6728,  # discard/suit1/age3
    -0.3538,  # discard/suit2/age0
    -0.3886,  # discard/suit2/age1
    -0.3930,  # discard/suit2/age2
    -0.2649,  # discard/suit2/age3
    +1.1103,  # take/rank/age0
    +1.1444,  # take/rank/age1
    +1.2051,  # take/rank/age2
    +1.4047,  # take/rank/age3
    +0.8958,  # take/suit1/age0
    +0.9783,  # take/suit1/age1
    +1.1214,  # take/suit1/age2
    +1.4715,  # take/suit1/age3
    +0.6920,  # take/suit2/age0
    +0.7483,  # take/suit2/age1
    +0.8761,  # take/suit2/age2
    +1.0430,  # take/suit2/age3
    +0.0150,  # wild/turns0
    +0.0707,  # wild/turns1
    +0.0952,  # wild/turns2
    +0.1030,  # wild/turns3
    +0.1025,  # wild/turns4
    +0.0955,  # wild/turns5
)
