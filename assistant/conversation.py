"""Conversation state and follow-up resolution.

A 135M model rewrites follow-ups unreliably, so references are resolved by rules over
the previous answer's citations: "the second one" is citation [2], "those" are all of
them, and a short question leaning on "it"/"they" is read together with the last query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from .reading.question_text import DASH
from .reading.question_forms import is_compare, is_list
from .plan import the_papers
from .reading.references import (ADD_TO, ALTERNATIVE, AND_WHICH, ANY_OTHERS, BACK_TO, DEFINITE, DESCRIBED,
                                 DETERMINER_PHRASE, FOLLOW_FRAME, GROUP, IN_GENERAL, MORE, MORE_ABOUT, NEGATION,
                                 NUMBERED, OF_THE_SET, ONE_LEFT, ORDINAL, OTHERS, OTHERS_ON, PLURAL, PRONOUN, SELECTS,
                                 SET_WORDS, SIMILAR, SINGLE, SPAN, SUPERLATIVE, SUPERLATIVE_WORD, SWITCH,
                                 SWITCH_THEN_ASKED, THEM, THE_ONE, THE_X_ONE, THIS_TOPIC, content, described_twice,
                                 numbers_named, ordinal_number)


@dataclass(frozen=True)
class AskedKinds:
    """The kinds of contribution an answer's papers were chosen for: whether as main contributions, of
    benchmark/dataset papers which use ("evaluation", "training"), and of method papers which form
    ("architecture"). A topic switch and a subset keep them."""

    contributions: tuple[str, ...] = ()
    mainly: bool = False
    data_use: str | None = None
    method_form: str | None = None

    @classmethod
    def of(cls, plan) -> "AskedKinds":
        return cls(tuple(plan.contributions), plan.mainly, plan.data_use, plan.method_form)

    def give(self, plan) -> None:
        """Make ``plan`` hold to these kinds."""
        plan.contributions, plan.mainly = list(self.contributions), self.mainly
        plan.data_use, plan.method_form = self.data_use, self.method_form


@dataclass
class Turn:
    question: str
    query: str
    answer: str
    citation_ids: list[str]
    citation_titles: list[str]
    kind: str = "topic"  # the plan kind that answered it: a topic switch ("and for robotics?") keeps it
    kinds: AskedKinds = AskedKinds()  # what its papers were chosen for
    within: list[str] | None = None  # a follow-up: the papers it chose from (its answer's are some of them)


@dataclass
class Resolved:
    query: str                       # what to retrieve with
    restrict_to: list[str] | None    # only these paper ids, or None for the whole store
    rewritten: bool = False
    why: str = ""                    # how the question was read, for the plan line
    pick_one: bool = False           # "the one about Lean": the single paper of the set that fits best
    switch_to: str | None = None     # "and for robotics?": a new search on this topic, same kind as the last
    last_kind: str = "topic"
    last_kinds: AskedKinds = AskedKinds()  # the kinds of contribution the last answer held to
    besides: list[str] | None = None  # "are there others on physics?": the new search leaves out these papers
    exclude: bool = False            # "which of them don't use RL?": the papers of the set the query does not fit
    whole_set: bool = False          # "what do they evaluate on?": about every paper of the set, not a subset
    left_out: bool = False           # "what about the other ones?": an earlier answer's papers the last one left out
    like: list[str] | None = None    # "are there similar papers?": the papers of the store closest to these
    sibling: bool = False            # the set is the one the last answer chose from ("what about the ones on X?")
    superlative: bool = False        # "which is the largest?": the one that fits best, never none
    adding: bool = False             # "add CRISP to the comparison": the last answer's papers and the one it names
    definite: bool = False           # "what is the dataset called?": about each paper, whatever kinds it names
    in_general: bool = False         # "tell me more about the second one": one paper, nothing in particular asked of it


# How wide a switched topic is to be read, which asks nothing of the last answer: "and for robotics more broadly?"
_BROADLY = re.compile(r"\s+(?:more\s+(?:broadly|generally)|in\s+general|(?:more\s+)?generally|overall|at\s+large)(?=\s*[?.!]*\s*$)",
                      re.IGNORECASE)


# Turns a conversation remembers (the oldest are forgotten): a long-running server holds up to
# API_CONVERSATIONS of them, which must not grow with every question asked.
TURNS_KEPT = 20


@dataclass
class Conversation:
    turns: list[Turn] = field(default_factory=list)

    def reset(self) -> None:
        self.turns.clear()

    def add(self, turn: Turn) -> None:
        self.turns.append(turn)
        del self.turns[:-TURNS_KEPT]

    @property
    def answered(self) -> bool:
        """Whether an earlier answer cited papers a follow-up could be about."""
        return any(t.citation_ids for t in self.turns)

    def resolve(self, question: str) -> Resolved:
        question = _BROADLY.sub("", question) or question  # "and for robotics more broadly?" switches to robotics
        earlier = self._gone_back_to(question)
        if earlier is not None:  # "Going back to the robotics set: which one ...?" asks it of that answer
            turns, rest = earlier
            resolved = Conversation(turns).resolve(rest)
            if resolved.restrict_to is not None:
                why = resolved.why.replace("the last answer", "that answer")
                return replace(resolved, why=f"{why}, going back to the answer on {turns[-1].query}")
        last = next((t for t in reversed(self.turns) if t.citation_ids), None)
        if not self.turns:
            return Resolved(question, None)
        # the last question about the papers: "thanks!" in between does not change what "and for robotics?" continues
        previous = next((t for t in reversed(self.turns) if t.kind != "out_of_scope"), self.turns[-1])
        others_on = OTHERS_ON.match(question)
        if others_on and last:  # "are there others on physics?"
            topic = others_on.group("topic")
            return Resolved(topic, None, True, f"a new search on {topic}, besides {the_papers(len(last.citation_ids))}",
                            switch_to=topic, last_kind=previous.kind, last_kinds=previous.kinds,
                            besides=list(last.citation_ids))
        if ANY_OTHERS.match(question) and last:  # "any others?": the last topic again, less what it gave
            topic = previous.query or last.query
            return Resolved(topic, None, True, f"a new search on {topic}, besides {the_papers(len(last.citation_ids))}",
                            switch_to=topic, last_kind=previous.kind, last_kinds=previous.kinds,
                            besides=list(last.citation_ids))
        if ADD_TO.match(question) and last:  # "add CRISP to the comparison"
            return Resolved(last.query, list(last.citation_ids), True,
                            f"{the_papers(len(last.citation_ids))}, and the paper it adds", whole_set=True, adding=True)
        if THIS_TOPIC.search(question) and previous.query:  # "benchmarks on this topic?"
            query = f"{previous.query} {content(THIS_TOPIC.sub(' ', question))}".strip()
            return Resolved(query, None, True, f"on the last question's topic: {previous.query}")
        one_left = bool(ONE_LEFT.search(question))  # "the other one", "the remaining one"
        others = self._left_out(every_pick=one_left) if OTHERS.search(question) else None
        if others:  # "what about the other ones?"
            ids, count = others
            remaining = content(OTHERS.sub(" ", SWITCH.sub(" ", question)))
            # "what does the other one achieve?" asks about that paper, not for the ones that "achieve"
            return Resolved(remaining or last.query, ids, True,
                            f"the {len(ids)} of an earlier answer's {count} papers that the last answer left out"
                            if not one_left or len(ids) > 1 else f"the one of an earlier answer's {count} papers not yet answered",
                            whole_set=not remaining or one_left or len(ids) == 1, left_out=True)
        if OTHERS.search(question) and not one_left and last and last.citation_ids \
                and not content(OTHERS.sub(" ", SWITCH.sub(" ", question))):
            # "what about the other ones?" when the last answer left none out: said so, not searched as a topic
            return Resolved(last.query, [], True, "the papers an earlier answer had that the last one left out: none",
                            whole_set=True, left_out=True)
        switched = SWITCH_THEN_ASKED.match(question)
        if switched:
            topic = switched.group("topic").strip()
            asked = re.sub(r"\btheir\b", f"{topic}'s", THEM.sub(topic, switched.group("asked")), flags=re.IGNORECASE)
            searched = next((t for t in reversed(self.turns) if t.kind != "out_of_scope" and t.within is None), previous)
            return Resolved(asked, None, True, f"a new search on {topic}", switch_to=asked, last_kind=searched.kind,
                            last_kinds=searched.kinds)
        switch = SWITCH.match(question)
        leans = ORDINAL.search(question) or GROUP.search(question) or PRONOUN.search(SWITCH.sub("", question))
        if switch and not leans:
            topic = SWITCH.sub("", question).strip(" ?.!")
            # the kind of the last search, not of a subset chosen from it since: "and what about video?" after
            # "which papers work on audio?" and "which one builds a dataset?" asks for papers on video
            searched = next((t for t in reversed(self.turns) if t.kind != "out_of_scope" and t.within is None), previous)
            return Resolved(topic, None, True, f"a new search on {topic}", switch_to=topic, last_kind=searched.kind,
                            last_kinds=searched.kinds)
        rest = FOLLOW_FRAME.sub(" ", question)
        if last and SIMILAR.search(question):  # "are there similar papers?"
            one = len(last.citation_ids) == 1  # its title says what to quote the others on; a set's question
            return Resolved(last.citation_titles[0] if one else last.query, None, True,
                            f"papers like {the_papers(len(last.citation_ids))}"
                            + (f" ({last.citation_titles[0].split(':')[0]})" if one else ""), like=list(last.citation_ids))
        if last and MORE.match(question):  # "tell me more"
            return Resolved(last.query, list(last.citation_ids), True, the_papers(len(last.citation_ids)),
                            whole_set=True)
        if last:
            one = THE_ONE.search(question) or THE_X_ONE.search(question)
            # "the bimanual one", "the one on a specific language" after an answer of one paper pick in the latest
            # answer of several ("which one is about law?" asks it of the one paper)
            described = bool(one) and one.group().lower().startswith("the")
            among = self._latest_of_several(last) if described else last
            ids = list(among.citation_ids)
            which = f"{'the last' if among is last else 'an earlier'} answer's {len(ids)} papers"
            if described and last.within and set(last.within) > set(last.citation_ids):
                # "the one that clusters prefixes" after a subset: any paper of the set the subset chose from
                ids = list(last.within)
                which = f"the {len(ids)} papers the last answer chose from"
            if one and len(ids) > 1 and is_compare(question) and described_twice(question):
                # "how is the two-arms one different from the one about safety?": both are of the set, compared
                return Resolved(among.query, ids, True, f"{which}, the two it describes among them")
            if one and len(ids) > 1:
                described_as, *asked_of_it = DESCRIBED.split(question[one.end():], maxsplit=1)
                described_as = ALTERNATIVE.sub("", described_as)
                about = (content(one.group("about")) if one.re is THE_X_ONE else "") \
                    or content(described_as) or content(THE_ONE.sub(" ", rest))
                best = not re.match(r"(?:the|which)\s+one\b", one.group(), re.IGNORECASE)  # "which is the largest?"
                said = SUPERLATIVE.search(question, one.start()) if best else None
                comparative = bool(said) and not SUPERLATIVE_WORD.match(said.group())
                how = (f" that is {said.group()} {about}" if said and MORE_ABOUT.fullmatch(said.group()) and about
                       else f" that is {'' if comparative else 'the '}{said.group()}" if said
                       else f" about {about}" if about else " that fits it best")
                in_general = described and bool(IN_GENERAL.match(question[:one.start()])) \
                    and not (asked_of_it and content(asked_of_it[0]))
                return Resolved(about or among.query, ids, True, f"the one of {which}{how}",
                                pick_one=True, superlative=best or bool(SUPERLATIVE_WORD.search(question, one.end())),
                                in_general=in_general)
            numbered = last
            several = numbers_named(question, len(last.citation_ids))
            if len(several) < 2 and len(last.citation_ids) == 1:  # "compare the first three" after one paper: the
                numbered = self._latest_of_several(last)  # list before it
                several = numbers_named(question, len(numbered.citation_ids))
            numbering = numbered.citation_ids
            if len(several) < 2 and last.within and last.within[:len(last.citation_ids)] == last.citation_ids:
                # the best k of a longer set ("how do they differ?" after 81 papers): its numbers go on into the set
                wider = numbers_named(question, len(last.within))
                if len(wider) > 1:
                    several, numbering = wider, last.within
            if len(several) > 1:  # "compare the first two", "[1] and [3]: how do they differ?"
                remaining = content(ORDINAL.sub(" ", SPAN.sub(" ", NUMBERED.sub(" ", rest))))
                which = "the last answer" if numbered is last else "an earlier answer"
                return Resolved(remaining or numbered.query, [numbering[n - 1] for n in several], True,
                                f"papers {', '.join(f'[{n}]' for n in several)} of {which}")
            ordinal = ORDINAL.search(question)
            if ordinal:
                numbered, n = self._numbered(ordinal, last)
                if numbered is not None:
                    remaining = content(ORDINAL.sub(" ", rest))
                    which = "the last answer" if numbered is last else "an earlier answer"
                    return Resolved(remaining or numbered.query, [numbered.citation_ids[n - 1]], True,
                                    f"paper [{n}] of {which} ({numbered.citation_titles[n - 1]})",
                                    whole_set=True,  # about that paper: "the second one: what's the result?"
                                    in_general=bool(IN_GENERAL.match(question[:ordinal.start()]))
                                    and not content(question[ordinal.end():]))
            # the set the last answer chose a subset from, if it did
            chosen_from = previous.within if previous.within and len(previous.within) > len(previous.citation_ids) else None
            and_which = AND_WHICH.match(question)
            # or "which one ..." of one, or "and which is about physics?" after a subset: the set it was chosen from
            if GROUP.search(question) or (one and len(last.citation_ids) == 1) or (and_which and chosen_from):
                group_rest = THE_ONE.sub(" ", GROUP.sub(" ", rest))
                negated = NEGATION.search(group_rest)
                if negated and content(group_rest[:negated.start()]):  # "about training, not just eval": what
                    group_rest, negated = group_rest[:negated.start()], None  # they are about, then a contrast
                remaining = content(NEGATION.sub(" ", group_rest))
                ids, papers = list(last.citation_ids), the_papers(len(last.citation_ids))
                several = self._latest_of_several(last)
                if len(ids) == 1 and PLURAL.search(question) and several is not last and not chosen_from:
                    # "does any of them use PRMs?" after "tell me more about PoLR": "them" are the papers of the
                    # latest answer of several, not the one paper told about
                    ids, papers = list(several.citation_ids), f"the {len(several.citation_ids)} papers of an earlier answer"
                elif len(ids) == 1 and chosen_from and THE_ONE.search(last.question) \
                        and (is_compare(question) or re.search(r"\bboth\b", question, re.IGNORECASE)
                             or re.search(r"\b" + OF_THE_SET, question, re.IGNORECASE)):
                    # "how do they differ? both use RL, no?" after "which one of them is about emotion?": the set
                    # that one was picked from, since one paper is not compared (after "only the ones on math",
                    # which found one, "those two" are not the set it was chosen from); or "which of them ...?",
                    # a subset of that set again
                    ids, papers = list(chosen_from), the_papers(len(chosen_from), chosen_from=True)
                # "what about the ones on physics?" after "which of them evaluate frontier models?": another subset
                # of the same set
                # (or "and which improve stability?" after "which of them improve pass@k?": the same set again)
                sibling = bool((switch or and_which) and chosen_from)
                if sibling:
                    ids, papers = list(previous.within), the_papers(len(previous.within), chosen_from=True)
                if one is not None and one.re is THE_ONE and len(ids) > 1 and not negated:
                    # "and which one needs the fewest demos?" after a subset of one: the one of the set it chose from
                    return Resolved(remaining or last.query, ids, True, f"the one of {papers}"
                                    + (f" about {remaining}" if remaining else " that fits it best"), pick_one=True,
                                    superlative=bool(SUPERLATIVE_WORD.search(question, one.end())), sibling=sibling)
                if negated and remaining:
                    return Resolved(remaining, ids, True, f"those of {papers} that are not on {remaining}", exclude=True,
                                    sibling=sibling)
                whole = not SELECTS.search(question)  # "what do they evaluate on?" asks about each of them
                return Resolved(remaining or last.query, ids, True,
                                f"{'each of ' if whole and remaining and len(ids) > 1 else ''}{papers}"
                                + (f", on {remaining}" if remaining else ""), whole_set=whole, sibling=sibling)
            if len(last.citation_ids) == 1 and SINGLE.search(question):
                remaining = content(SINGLE.sub(" ", rest))
                return Resolved(remaining or last.query, list(last.citation_ids), True,
                                f"the paper of the last answer ({last.citation_titles[0]})",
                                whole_set=not SELECTS.search(question))  # "only if it uses RL": may be none
        definite = DEFINITE.search(question) if last else None
        if definite and not is_list(question) and len(content(DEFINITE.sub(" ", question)).split()) <= 2:
            # "what is the dataset called?" after an answer: its papers' dataset, not every dataset paper
            return Resolved(content(question), list(last.citation_ids), True, the_papers(len(last.citation_ids)),
                            whole_set=True, definite=True)
        if PRONOUN.search(DETERMINER_PHRASE.sub(" ", question)) and len(content(question).split()) <= 6:
            query = f"{previous.query} {content(rest)}".strip()
            return Resolved(query, None, True, f"read with the last question: {query}")
        return Resolved(question, None)

    def _gone_back_to(self, question: str) -> tuple[list["Turn"], str] | None:
        """The turns up to the earlier answer a question goes back to, and what it asks of it: "Going back to the
        robotics/embodied set: which one offers safety guarantees?" -> the turns up to the answer whose query
        shares a word with "robotics/embodied", and "which one offers safety guarantees?"."""
        back = BACK_TO.match(question)
        if back is None:
            return None
        head, sep, rest = (re.split(r"(:|,|" + DASH + ")", question[back.end():], maxsplit=1) + ["", ""])[:3]
        words = {w.lower() for w in re.findall(r"\w[\w-]*", head)} - SET_WORDS
        if not sep or not rest.strip() or not words:
            return None
        for i in range(len(self.turns) - 1, -1, -1):
            turn = self.turns[i]
            if turn.citation_ids and words & {w.lower() for w in re.findall(r"\w[\w-]*", f"{turn.query} {turn.question}")}:
                return self.turns[:i + 1], rest.strip()
        return None

    def kinds_for(self, plan) -> AskedKinds:
        """The kinds of contribution the answer to ``plan`` holds to: the plan's own, or for a follow-up within
        the last answer, that answer's ("which of them are about law?" after "which papers introduce a
        benchmark?" still holds benchmarks)."""
        if plan.contributions:
            return AskedKinds.of(plan)
        answered = next((t for t in reversed(self.turns) if t.citation_ids), None)  # the set it restricts to
        if plan.restrict_to is not None and answered is not None:
            return answered.kinds
        return AskedKinds()

    def _latest_of_several(self, last: Turn) -> Turn:
        """The latest answer that cited several papers ("what about the third?" after an answer of one counts in
        it), or ``last`` when there is none."""
        return next((t for t in reversed(self.turns) if len(t.citation_ids) > 1), last)

    def _numbered(self, ordinal: re.Match, last: Turn) -> tuple[Turn | None, int]:
        """The answer a paper number refers to, and the number: the last answer's, but after an answer of one
        paper ("summarize the first one") a word ordinal counts in the latest answer of several ("what about
        the third?", "the last one?"), while "[1]" is still the one paper on the screen; a number past the
        end of one answer is tried in the other. (None, 0) when neither has that many papers."""
        several = self._latest_of_several(last)
        order = (several, last) if ordinal.group(1) and len(last.citation_ids) == 1 else (last, several)
        for turn in order[:1] if several is last else order:
            n = ordinal_number(ordinal, len(turn.citation_ids))
            if 1 <= n <= len(turn.citation_ids):
                return turn, n
        return None, 0

    def _left_out(self, every_pick: bool = False) -> tuple[list[str], int] | None:
        """The papers of an earlier answer that the last one, a subset of it, left out, and how many that
        earlier answer had: the set the last follow-up that chose some of its papers chose from (all of it
        when it chose none: "which of them use a KL penalty?", then "which don't?"), past follow-ups about
        every paper of their set ("which use RL?", "how do those differ?", "which don't?"); else the latest
        answer that holds more than the last one's papers; None when there is none. With ``every_pick`` ("the
        remaining one"), less every paper the follow-ups in a row on that set have picked."""
        turns = [t for t in self.turns if t.kind != "out_of_scope"]
        for at in range(len(turns) - 1, -1, -1):
            turn = turns[at]
            if turn.within is None:
                break
            picked = set(turn.citation_ids)
            if every_pick:  # "the one that uses rationales", then "what about the remaining one?"
                for before in reversed(turns[:at]):
                    if before.within != turn.within:
                        break
                    picked |= set(before.citation_ids)
            rest = [pid for pid in turn.within if pid not in picked]
            if rest:
                return rest, len(turn.within)
        answered = [t for t in self.turns if t.citation_ids]
        if len(answered) < 2:
            return None
        last = set(answered[-1].citation_ids)
        earlier = next((t for t in reversed(answered[:-1]) if last < set(t.citation_ids)), None)
        if earlier is None:
            return None
        return [pid for pid in earlier.citation_ids if pid not in last], len(earlier.citation_ids)
