"""Audio mode's words for the screen (docs/accessibility.md): what a player who cannot see
the screen hears as it changes, on top of the engine's facts (:mod:`pegboard.voice.announce`).

Each batch of keys brings, in order: the sound of each key (:class:`~pegboard.app.sounds.Sound`
as the app asked for it: a click for a move, a tone for a key taken, another for a refusal),
then the facts of the entries saved, then one of:

* **a screen reached** (another kind of screen, another title, another wheel, a page): its
  title and what is chosen on it ("Menu: Back"; "Crib card 2 of 4: 7"); a page is read
  whole ("Not allowed. ..."), except a page that shows a count or the end of the play, whose
  points the facts just said, and a page whose words the teaching voice said as it came (a
  coach page, the show order, a near miss: :attr:`Announcer.voiced`, by the page's kind):
  their title only, so each score and each page is said once; a muggins call's page, whose
  every line the call's fact said as it was taken, is not said at all;
* **a move** (a click): what the cursor is on now, in short words: the card on the wheel,
  the row, the number ("7", "jack, with nobs", "Teaching: on");
* **a key taken** that changed what is chosen: the row as it is now; a hold that changed
  nothing on a wheel showing what a hold set (a card with no other suit fact): the
  refusal's tone and the card as it stands ("7, plain");
* a game under a club night's tournament lock: "Tournament lock: no help" once, before its
  first screen, or before the whole screen when a locked game is resumed or audio mode is
  turned on in one (the screens show the lock for the whole game);
* teaching: the pegging coach's line, whole, as the play screen comes to show a new one (the
  screen shows the card to lay; in audio mode no page before the turn says why), once
  (:func:`coach_line`);
* "Entered" when an entry was saved and none of its facts had anything to say (not in the
  terse style: the tone of the key taken says it). A count's
  page put right (GO adding a forgotten flush or his nobs) is said by its title again: the
  facts have just said the count, recounted, with the board it leaves.

Pure: it reads views (what the screen shows), never the game; the same views give the same
words.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pegboard.app.sounds import Sound
from pegboard.app.state import AppState
from pegboard.app.teach import COACH_COLUMNS
from pegboard.app.view import PageKind, PickerView, Screen, View
from pegboard.app.words import rejoined, side_name
from pegboard.rules.state import Phase
from pegboard.rules.value import replace
from pegboard.voice.acts import DEAL, Announcement, Importance
from pegboard.voice.phrases import coach_phrase, speakable

EARCON = "earcon"
"""The kind of an announcement that is one of audio mode's sounds (its text names it)."""

SOUND_TEXT = {Sound.CLICK: "[click]", Sound.OK: "[ok]", Sound.REFUSED: "[refused]"}
"""How a sound is written in a transcript."""

LOCKED = "Tournament lock: no help"
"""Said once as a game under the tournament lock begins (the view's ``locked`` turning on)."""

_WORDLESS = (Screen.SHOW, Screen.GAME_OVER)

_DEALT = (Screen.STARTER, Screen.PLAY)
"""The screens of a deal whose title names it ("Deal 3"): said without it once the deal's own
announcement has named it."""
"""Pages whose points or result the engine's facts have just said: only their title."""


def earcon(sound: Sound) -> Announcement:
    """A sound as an announcement (its text as a transcript writes it)."""
    return Announcement(SOUND_TEXT[sound], EARCON, Importance.CUE)


def sound_of(said: Announcement) -> Sound | None:
    """The sound an announcement plays (None: it is words)."""
    if said.kind != EARCON:
        return None
    return next(sound for sound, text in SOUND_TEXT.items() if text == said.text)


def reached(before: View, after: View) -> bool:
    """Whether ``after`` is another screen than ``before`` for a listener: another kind,
    title, page or wheel. The play's own wheel passing to the next player is not (whose
    turn it is is said after a go or a reset, as the facts report it)."""
    if (before.screen, before.title, before.suits) != (after.screen, after.title, after.suits):
        return True  # a suit fact GO set is said too
    if after.picker is None or before.picker is None:
        if (after.picker is None) != (before.picker is None):
            return True
        text = after.selected is None and after.screen not in (Screen.PEG, Screen.CLAIM)
        return text and before.lines != after.lines
    return after.screen is not Screen.PLAY and before.picker.prompt != after.picker.prompt


def prompt_words(picker: PickerView) -> str:
    """A wheel's question and the card it is on: "Ben plays: 7"; a question whole, as the
    voice says it where the screen shortens it, then the card ("Starter ace: suit for nobs?
    1 clubs, 2 diamonds, 3 hearts, 4 spades. ace of clubs")."""
    prompt = speakable(picker.spoken or picker.prompt)
    joiner = " " if prompt.endswith("?") else ": " if not picker.spoken else ". "
    return f"{prompt}{joiner}{wheel_words(picker)}"


def cursor_words(view: View) -> str:
    """What the cursor is on: the card on the wheel, the row, the number being turned."""
    if view.picker is not None:
        return wheel_words(view.picker)
    if view.screen is Screen.PEG:
        row = view.lines[view.selected] if view.selected is not None else ""
        return speakable(f"{view.title}, {row}")
    if view.selected is not None and view.lines:
        return speakable(view.lines[view.selected % len(view.lines)])
    if view.lines:
        return speakable(view.lines[min(view.first_line, len(view.lines) - 1)])
    return speakable(view.title)


def wheel_words(picker: PickerView) -> str:
    """The wheel's card as said, with the suit facts a hold set on it, in the words every
    output gives them: "jack, with nobs", "7, flush of four", "7, plain"."""
    if not picker.options:
        return speakable(picker.empty_words)
    card = speakable(picker.candidate)
    return f"{card}, {picker.fact_words}" if picker.facts else card


def sentences(parts: Sequence[str]) -> str:
    """Parts said one after another: "Who deals first? Cut for deal"."""
    out = ""
    for part in (speakable(part) for part in parts):
        if part:  # a part after a colon goes on the same sentence ("Lowest cards tie: cut")
            out += (" " if out.endswith(("?", ".", "!", ":")) else ". " if out else "") + part
    return out


def screen_words(view: View, voiced: frozenset[PageKind] = frozenset()) -> str:
    """A screen as it is reached: its title and what is chosen; a page read whole (a count's
    page by what it is about, ``named``, or the result by its title alone, without the
    points the facts said; a page whose
    words the teaching voice said, of a kind in ``voiced``, by its title alone)."""
    parts = [view.title] if view.title else []
    if view.picker is not None:
        # the cut: each card cut so far ("Ann: 4"), which the wheel's next prompt does not say
        cut = view.lines if view.screen is Screen.CUT else ()
        return sentences([*parts, *cut, prompt_words(view.picker)])
    if view.screen in _WORDLESS:
        return sentences([view.named or view.title, *view.suits])
    if view.title and view.page in voiced:
        return sentences(parts)
    if view.selected is not None or view.screen is Screen.CLAIM:
        return sentences([*parts, cursor_words(view), *view.suits])
    return sentences([*parts, *rejoined(view.lines)])


def undone_words(view: View, voiced: frozenset[PageKind] = frozenset()) -> str:
    """Where the table is after an undo: the screen whole, and in the play the count the
    card taken back leaves ("Deal 1. Count 2. P1 plays: 2"), which no screen word says."""
    if view.screen is Screen.PLAY and view.count is not None and view.picker is not None:
        return sentences([view.title, f"Count {view.count}", prompt_words(view.picker)])
    return screen_words(view, voiced)


def score_words(state: AppState) -> str:
    """"Say the score": each side's score, in the play the count and who is to act
    ("Ann 46, Ben 39. Count 22, Ben to play"); with no game, that there is none."""
    if state.session is None:
        return "No game"
    gs = state.session.state
    words = ", ".join(f"{side_name(gs, s)} {gs.shown[s]}" for s in range(gs.sides))
    if gs.phase is Phase.PLAY and gs.to_act is not None:
        words += f". Count {gs.count}, {gs.names[gs.to_act]} to play"
    return words


def coach_line(view: View, entry: int = 0, *, paged: bool = False) -> list[Announcement]:
    """The pegging coach's line on ``view``; with ``paged`` (the voice without audio mode)
    only a line short enough for the play screen: a longer one came whole on a page before
    the turn, which the teaching voice said."""
    if not view.coach or (paged and len(view.coach) > COACH_COLUMNS):
        return []
    return [Announcement(coach_phrase((view.coach,)), "coach", Importance.TEACHING, entry)]


@dataclass(slots=True)
class AudioScreen:
    """Remembers the view last heard, to tell what each new one brings (see the module)."""

    _view: View | None = None
    terse: bool = False
    """The terse style: no "Entered" (the key's tone says so)."""
    deal_said: bool = False
    """A new deal and its dealer were said (and no undo since): the deal's starter and play
    screens are said without their titles ("Deal 3: Ann deals", "Deal 3"), which the deal's
    own announcement said."""
    coached: tuple[int, str] = (0, "")
    """The pegging coach's line said last, with the entries in force then: a page read or a
    key refused on the same turn does not bring it again; the same words on a later turn
    do."""

    def begin(self, view: View) -> None:
        """Take ``view`` as heard (nothing said for it)."""
        self._view = view

    def heard(self, view: View, sounds: Sequence[Sound], *, facts: bool, saved: bool,
              entry: int = 0, voiced: frozenset[PageKind] = frozenset(),
              undone: bool = False, redone: bool = False,
              dealt: bool = False, counted: bool = False) -> list[Announcement]:
        """The words ``view`` brings after a batch whose keys made ``sounds``; ``facts``
        when the engine's facts already said something, ``saved`` when an entry was saved,
        ``undone`` when entries were taken back and none entered, ``redone`` when entries
        were taken back and entered again (GO setting a suit fact), ``dealt`` when the facts
        said a new deal and its dealer (the deal's screens then say their wheel, not the
        deal again; the cut's page, reached with them, is said as the deal's announcement:
        who deals and why, once), ``counted`` when they said the count of the page reached
        (its name is not said again, only its suits line); ``voiced``: the kinds of the pages
        on screen the teaching voice has said."""
        before, self._view = self._view, view
        self.deal_said = (self.deal_said or dealt) and not undone
        whole = view  # an undo says where the table is now, title and all
        view = self._untitled(view)
        before = None if before is None else self._untitled(before)
        said: list[str] = []
        if saved and not facts and not self.terse and not redone:
            said.append("Entered")
        if view.locked and before is not None and not before.locked:
            said.append(LOCKED)
        if (before is not None and not undone and view.suits != before.suits
                and (before.screen, before.title) == (view.screen, view.title)):
            # GO set a suit fact on the count or claim on screen: what it set, and what GO
            # sets next, without the rest of the screen heard already
            said.extend(view.suits)
            kind, importance = "row", Importance.SCREEN
        elif facts and not undone and view.page is PageKind.MUGGINS:
            # the call's page: the facts just said all it shows ("Muggins! Ben takes two
            # from Ann's crib"), so its words, its title too, would be said twice
            kind, importance = "screen", Importance.SCREEN
        elif counted and not undone and view.page is PageKind.COUNT:
            # the count's page, reached as its count is said: the facts named it and said
            # its points; what GO sets on it is all that is new
            said.extend(view.suits)
            kind, importance = "screen", Importance.SCREEN
        elif dealt and not undone and view.page is PageKind.CUT:
            # the cut's page says who deals and why: said once, as the deal's own
            # announcement (the hook leaves out the deal's shorter one)
            said.append(screen_words(view, voiced))
            kind, importance = DEAL, Importance.PLAY
        elif before is None or undone or reached(before, view):
            # an undo says where the table is now, whatever of it changed; the next card
            # asked on the same screen (the crib's next card, the next seat's cut), its
            # question alone: its title was said as it was reached
            same = (before is not None and view.picker is not None and before.picker is not None
                    and (before.screen, before.title) == (view.screen, view.title))
            heard = whole if undone else replace(view, title="") if same else view
            said.append(undone_words(heard, voiced) if undone else screen_words(heard, voiced))
            kind, importance = "screen", Importance.SCREEN
        elif saved and view.picker is not None:
            # an entry made on a wheel that stays (the play's wheel passing to the next
            # player): the card it offers now, as the next detent would say it
            out = [Announcement(text, "entered", Importance.SCREEN, entry)
                   for text in (sentences(said),) if text]
            out.append(Announcement(cursor_words(view), "wheel", Importance.WHEEL, entry))
            return out + self.coach(view, entry)
        elif Sound.CLICK in sounds:
            return [Announcement(cursor_words(view), "wheel", Importance.WHEEL, entry)]
        elif Sound.OK in sounds and view != before and (
                # a row chosen; a digit key on a claim: the number as it now stands, read
                # back; a press that moved the wheel, entering nothing (GO's jump): where
                # it is
                view.selected is not None or view.screen is Screen.CLAIM or (
                not saved and view.picker is not None and before.picker is not None
                and view.picker.entering != before.picker.entering)):
            said.append(cursor_words(view))
            kind, importance = "row", Importance.SCREEN
        elif (Sound.REFUSED in sounds and view == before and view.picker is not None
              and view.picker.facts):
            # a hold again on a card it offers no other suit fact for: the refusal's tone,
            # and what the wheel still shows ("7, plain"), so that the hold is answered
            said.append(cursor_words(view))
            kind, importance = "row", Importance.SCREEN
        else:
            kind, importance = "entered", Importance.SCREEN
        text = sentences(said)
        out = [Announcement(text, kind, importance, entry)] if text else []
        return out + self.coach(view, entry)

    def _untitled(self, view: View) -> View:
        """``view`` as heard: a screen of the deal said without its title (see
        :attr:`deal_said`)."""
        if self.deal_said and view.screen in _DEALT and view.title:
            return replace(view, title="")
        return view

    def coach(self, view: View, entry: int = 0, *, paged: bool = False) -> list[Announcement]:
        """The pegging coach's line, once as it comes (:func:`coach_line`)."""
        if (entry, view.coach) == self.coached:
            return []
        out = coach_line(view, entry, paged=paged)
        if out:
            self.coached = (entry, view.coach)
        return out

    def screen(self, view: View) -> Announcement:
        """The whole screen said now (audio mode turned on, or the device started in it; a
        game under the tournament lock said to be one first)."""
        self._view = view
        words = screen_words(view)
        return Announcement(sentences([LOCKED, words]) if view.locked else words, "screen",
                            Importance.SCREEN)
