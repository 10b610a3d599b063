"""PDFs in scripts other than Latin, for checking that vaultsum keeps their text (issue 36: a
page whose text is not language is marked unreadable; letters of every script must count).

Writes into OUT_DIR one PDF per script (Chinese, Japanese, Korean, Arabic, Hindi in Devanagari,
Hindi numerals and a numbers-only table page among them), set with fpdf2 and HarfBuzz shaping,
with fonts from Debian packages: fonts-wqy-microhei (CJK), fonts-dejavu-core (Arabic),
fonts-lohit-deva (Devanagari). Compare them as any corpus:

    pip install fpdf2 uharfbuzz fonttools pypdfium2
    python eval/make_script_pdfs.py OUT_DIR
    python eval/pdf_vs_pdfium.py OUT_DIR --bin target/release/vaultsum
"""

import sys
import tempfile
from pathlib import Path

from fontTools.ttLib import TTCollection
from fpdf import FPDF

FONTS = {
    "cjk": "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "arabic": "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "devanagari": "/usr/share/fonts/truetype/lohit-devanagari/Lohit-Devanagari.ttf",
}

TEXTS = {
    "chinese": ("cjk", [
        "第一章 概述",
        "本报告总结了二〇二六年第三季度水泵检查的结果。检查发现，过滤器更换后水泵运行温度偏高，技术人员记录了两次读数。",
        "表１：温度（℃）",
        "８５．２　　８７．９　　９０．１　　８８．４",
        "办公室预约了第二天上午的维修，并要求在上门前提供铭牌照片。",
    ]),
    "japanese": ("cjk", [
        "第１章　はじめに",
        "この報告書は、ポンプ点検の結果をまとめたものです。フィルター交換後にポンプが高温で運転していることが分かりました。",
        "表２：測定値　１２．５、１３．０、１４．２",
        "翌朝の修理を予約し、訪問前に銘板の写真を依頼しました。",
    ]),
    "korean": ("cjk", [
        "제1장 개요",
        "이 보고서는 펌프 점검 결과를 요약합니다. 필터 교체 후 펌프가 과열된 상태로 작동하는 것이 확인되었습니다.",
        "표 3: 12.5, 13.0, 14.2 (°C)",
        "사무실은 다음 날 아침 수리를 예약했습니다.",
    ]),
    "arabic": ("arabic", [
        "الفصل الأول: نظرة عامة",
        "يلخص هذا التقرير نتائج فحص المضخة. وجد الفحص أن المضخة تعمل بحرارة عالية بعد تغيير المرشح.",
        "الجدول ١: ٨٥٫٢ ، ٨٧٫٩ ، ٩٠٫١",
        "حجز المكتب موعدا للإصلاح في صباح اليوم التالي.",
    ]),
    "hindi": ("devanagari", [
        "अध्याय १: सारांश",
        "यह रिपोर्ट पंप निरीक्षण के परिणामों का सारांश प्रस्तुत करती है। फ़िल्टर बदलने के बाद पंप गर्म चल रहा था।",
        "तालिका २: ८५.२, ८७.९, ९०.१ (°C)",
        "क्षेत्र कार्यालय ने अगली सुबह मरम्मत की व्यवस्था की और प्रमाण-पत्र की तस्वीरें माँगीं।",
    ]),
}

# A page of numbers alone (no word), in each script's digits: text, not noise.
NUMBER_PAGES = {
    "chinese": "１２．５　１３．０　１４．２　１５．８　１６．１　１７．３　１８．９　１９．４",
    "arabic": "٨٥٫٢ ٨٧٫٩ ٩٠٫١ ٨٨٫٤ ٨٦٫٥ ٩١٫٢ ٩٢٫٧ ٨٩٫٣",
    "hindi": "८५.२ ८७.९ ९०.१ ८८.४ ८६.५ ९१.२ ९२.७ ८९.३",
}


def font_file(kind, scratch):
    path = FONTS[kind]
    if not path.endswith(".ttc"):
        return path
    single = scratch / "wqy-microhei.ttf"
    if not single.exists():
        TTCollection(path).fonts[0].save(str(single))
    return str(single)


def main():
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, (kind, lines) in TEXTS.items():
        pdf = FPDF()
        pdf.add_font("F", "", font_file(kind, Path(tempfile.gettempdir())))
        pdf.set_font("F", size=13)
        pdf.set_text_shaping(True)
        for copy in range(2):
            pdf.add_page()
            for line in lines:
                pdf.multi_cell(0, 9, line, align="R" if kind == "arabic" else "L", new_x="LMARGIN", new_y="NEXT")
        if name in NUMBER_PAGES:
            pdf.add_page()
            for _ in range(6):
                pdf.multi_cell(0, 9, NUMBER_PAGES[name], new_x="LMARGIN", new_y="NEXT")
        pdf.output(str(out / f"{name}.pdf"))


if __name__ == "__main__":
    main()
