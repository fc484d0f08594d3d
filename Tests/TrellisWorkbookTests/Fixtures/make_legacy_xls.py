"""Writes legacy-names.xlsx with openpyxl: a sheet of 400 people whose Chinese names and
addresses fill a shared string table longer than one BIFF record, numbers in custom formats
(grouped with a red negative section, a percent with one decimal, a Chinese date), truth values,
and a 合计 row of formulas (a sum, a text result, a truth result, an error); and a second, empty
sheet. LibreOffice then saves it as Excel 97 (.xls) and exports what it shows as CSV:

    python3 make_legacy_xls.py
    soffice --headless --convert-to 'xls:MS Excel 97' legacy-names.xlsx
    soffice --headless --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,1' \
        --outdir shown legacy-names.xls && mv shown/legacy-names-名单.csv legacy-names-shown.csv

(only the .xls and the CSV are kept)."""
import datetime
import random

import openpyxl

random.seed(37)
wb = openpyxl.Workbook()
ws = wb.active
ws.title = "名单"
ws.append(["编号", "姓名", "城市", "金额", "比例", "日期", "通过", "备注"])
surnames = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈"
given = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞建国志文斌宇浩然子轩梓涵一诺欣怡"
cities = ["北京市朝阳区", "上海市浦东新区", "广州市天河区", "深圳市南山区", "杭州市西湖区"]
for i in range(1, 401):
    name = random.choice(surnames) + random.choice(given) + random.choice(given)
    city = random.choice(cities) + str(random.randint(1, 99)) + "号"
    day = datetime.date(2024, 1, 1) + datetime.timedelta(days=random.randint(0, 365))
    r = ws.max_row + 1
    ws.append([f"N{i:04d}", name, city, round(random.uniform(-500, 99999), 2), random.random(), day, random.random() < 0.5,
               f"第{i}条 note é ü"])
    ws.cell(r, 4).number_format = "#,##0.00;[Red]-#,##0.00"
    ws.cell(r, 5).number_format = "0.0%"
    ws.cell(r, 6).number_format = 'yyyy"年"m"月"d"日"'
r = ws.max_row + 1
ws.cell(r, 1, "合计")
ws.cell(r, 4, f"=SUM(D2:D{r - 1})").number_format = "#,##0.00"
ws.cell(r, 5, f'=IF(D{r}>0,"正","负")')
ws.cell(r, 7, f"=D{r}>0")
ws.cell(r, 8, "=1/0")
wb.create_sheet("空表")
wb.active = 0
wb.save("legacy-names.xlsx")
