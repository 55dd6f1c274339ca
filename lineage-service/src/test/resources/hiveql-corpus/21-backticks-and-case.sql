INSERT OVERWRITE TABLE `DW`.`Customer_Dim` SELECT `Customer_ID`, UPPER(`Name`), Country FROM `sales`.`customers`
